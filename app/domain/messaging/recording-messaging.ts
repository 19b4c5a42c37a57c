import type { EmailMessage, Messaging, SmsMessage } from "./types";

/** Records what would be sent, so a test can read a one-time code as a member would. */
export class RecordingMessaging implements Messaging {
  sms: SmsMessage[] = [];
  emails: EmailMessage[] = [];
  async sendSms(message: SmsMessage) {
    this.sms.push(message);
  }
  async sendEmail(message: EmailMessage) {
    this.emails.push(message);
  }
  /** The newest code sent to a number or an address, by text message or e-mail. */
  lastCode(to: string): string {
    const sms = this.sms.filter((m) => m.to === to).at(-1);
    const email = this.emails.filter((m) => m.to === to).at(-1);
    const code = sms ? /\d{6}/.exec(sms.text)?.[0] : email && "code" in email.data ? email.data.code : undefined;
    if (!code) throw new Error(`no code sent to ${to}`);
    return code;
  }
  lastSmsCode(to: string): string {
    const code = /\d{6}/.exec(this.sms.filter((m) => m.to === to).at(-1)?.text ?? "")?.[0];
    if (!code) throw new Error(`no code sent to ${to}`);
    return code;
  }
  lastEmailCode(to: string): string {
    const mail = this.emails.filter((m) => m.to === to).at(-1);
    if (mail?.template !== "one-time-code") throw new Error(`no code mailed to ${to}`);
    return mail.data.code;
  }
}
