/** A complete, valid production environment for configuration tests (each test changes one thing). */
export const PRODUCTION_ENV = {
  APP_ENV: "production",
  DATABASE_URL: "postgres://app@db.internal:5432/app",
  SESSION_SECRET: "s".repeat(32),
  AUDIT_ANCHOR_KEY: "a".repeat(32),
  PUBLIC_BASE_URL: "https://member.example.com",
  SMS_PROVIDER: "mitake",
  MITAKE_USERNAME: "han-living",
  MITAKE_PASSWORD: "mitake-password",
  SMTP_URL: "smtps://mailer:secret@smtp.example.com:465",
  MAIL_FROM: "漢生活 <no-reply@member.example.com>",
} as const;
