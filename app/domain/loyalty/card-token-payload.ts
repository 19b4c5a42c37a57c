/** What /member-center/card-token answers (and the member center's loader sends first). */
export type CardTokenPayload = {
  token: string;
  /** The token as a QR code: SVG markup rendered on the server. */
  svg: string;
  expiresAt: string;
  /** The server's clock when the token was issued: the countdown runs on it, not on the phone's clock. */
  issuedAt: string;
};
