-- Issue 33 item 15 (ADR 034): the welcome goes by LINE and e-mail unless an admin adds SMS. Until this release its
-- default was every channel. A welcome row that is still exactly that old default — switched on, the default texts,
-- every channel, saved once (version 1) and never edited since — is the default an admin saved without changing it:
-- it loses SMS. The version goes up, so a form still open on it is told it changed. Any other row is the admin's
-- choice and stays. Installs that never saved the welcome have no row and follow the new default in code.
UPDATE "automatic_message"
SET "channels" = ARRAY['line', 'email']::text[], "version" = "version" + 1, "updated_at" = now()
WHERE "kind" = 'welcome'
  AND "version" = 1
  AND "enabled"
  AND "channels" = ARRAY['line', 'sms', 'email']::text[]
  AND "text_zh" = '{name} 您好，歡迎加入漢生活會員！已為您存入 {points} 點迎新點數，結帳時出示會員卡即可累積點數。'
  AND "text_en" = 'Hello {name}, welcome to Han Living! We have added {points} welcome points. Show your member card at checkout to earn more.';
