import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/** One message as the SMTP server received it: the envelope and the parsed MIME message. */
export type ReceivedMail = { from: string; to: string[]; raw: Buffer; parsed: ParsedMail };

export type TestSmtpServer = {
  /** smtp://user:pass@127.0.0.1:PORT — what SMTP_URL would be. */
  url: string;
  received: ReceivedMail[];
  /** Answers the next RCPT TO commands with these SMTP errors, one each (e.g. 451, 550). */
  rejectNextRecipients(...codes: number[]): void;
  close(): Promise<void>;
};

/**
 * A real SMTP server (the `smtp-server` package) on 127.0.0.1 and a free port, with AUTH required
 * (plain text: it is local). Tests send through it exactly as production sends through its relay.
 */
export async function startTestSmtpServer(
  credentials = { user: "mailer", pass: "s3cret pass" },
): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const rejections: number[] = [];
  const server = new SMTPServer({
    logger: false,
    disabledCommands: ["STARTTLS"],
    authOptional: false,
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (auth.username === credentials.user && auth.password === credentials.pass) {
        callback(null, { user: auth.username });
      } else {
        callback(Object.assign(new Error("Invalid username or password"), { responseCode: 535 }));
      }
    },
    onRcptTo(_address, _session, callback) {
      const code = rejections.shift();
      if (code) {
        const text = code >= 500 ? "Mailbox unavailable" : "Try again later";
        callback(Object.assign(new Error(text), { responseCode: code }));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", async () => {
        const raw = Buffer.concat(chunks);
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
        received.push({
          from,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          parsed: await simpleParser(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  const auth = `${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.pass)}`;
  return {
    url: `smtp://${auth}@127.0.0.1:${port}`,
    received,
    rejectNextRecipients(...codes) {
      rejections.push(...codes);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
