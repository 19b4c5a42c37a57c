/** The campaign composer's limits (issue 16, ADR 034): shared by the form's fields and the server's checks. */
export const CAMPAIGN_NAME_MAX = 80;
export const LINE_TEXT_MAX = 1000;
export const EMAIL_SUBJECT_MAX = 120;
export const EMAIL_BODY_MAX = 5000;
export const CAMPAIGN_PAGE_SIZE = 20;
