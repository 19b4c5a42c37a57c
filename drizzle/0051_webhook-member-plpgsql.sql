-- The webhook outbox's member payload (ADR 054), cheaper per event (issue 38, "≤ 10 % of a purchase's cost"; ADR 054,
-- "Speed"). As a SQL function called from `webhook_enqueue`'s INSERT … SELECT, `webhook_member`'s body was parsed and
-- planned again at every event (a SQL function that cannot be inlined gets a new plan per execution of the statement
-- calling it): about half of what the outbox added to a purchase in PostgreSQL. The same body in PL/pgSQL keeps its
-- plan for the session. Same arguments, same answer (null for no such member), still STABLE.
CREATE OR REPLACE FUNCTION "webhook_member"(mid uuid, pii boolean) RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (
    SELECT CASE WHEN pii THEN jsonb_build_object(
             'id', m."id", 'memberNumber', m."member_number", 'disabled', m."disabled",
             'createdAt', m."created_at", 'name', m."name_zh", 'phone', m."phone_number", 'email', m."email",
             'birthday', m."birthday", 'gender', m."gender", 'locale', m."locale",
             'address', jsonb_build_object('postalCode', m."postal_code", 'city', m."city", 'district', m."district",
                                           'street', m."street"))
           ELSE jsonb_build_object('id', m."id", 'memberNumber', m."member_number", 'disabled', m."disabled",
                                   'createdAt', m."created_at") END
      FROM "member" m WHERE m."id" = mid
  );
END
$$;
