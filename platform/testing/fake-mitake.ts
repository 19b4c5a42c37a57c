import { type FakeHttpServer, type RecordedRequest, startFakeHttpServer } from "@platform/testing/fake-http";

/**
 * A local stand-in for 三竹簡訊's SmSend HTTP API, strict about what Mitake expects and answering
 * in Mitake's format (HTTP 200 with `key=value` lines, CRLF):
 *
 *   POST /api/mtk/SmSend?CharsetURL=UTF8   (application/x-www-form-urlencoded)
 *   username, password, dstaddr (09xxxxxxxx), smbody, clientid
 *
 * It keeps Mitake's duplicate guard: a clientid it has accepted before is answered with the first
 * answer plus `Duplicate=Y` and is not sent again. Faults can be queued to play an outage.
 */
export type MitakeFault =
  /** HTTP 503 from the load balancer, nothing taken. */
  | "http-503"
  /** statuscode=* (system error), nothing taken. */
  | "system-error"
  /** The message is taken, then the connection drops before the answer. */
  | "lose-response";

export type MitakeAccepted = { msgid: string; dstaddr: string; smbody: string; clientid: string | null };

export type FakeMitake = FakeHttpServer & {
  /** Messages Mitake took (and would deliver), in order. */
  accepted: MitakeAccepted[];
  /** Queues faults for the next requests, one each. */
  fail(...faults: MitakeFault[]): void;
};

const CRLF = "\r\n";
const answer = (lines: string[]) => `[1]${CRLF}${lines.join(CRLF)}${CRLF}`;

export async function startFakeMitake(credentials: { username: string; password: string }): Promise<FakeMitake> {
  const accepted: MitakeAccepted[] = [];
  const answers = new Map<string, string[]>();
  const faults: MitakeFault[] = [];
  let nextMsgid = 1_010_079_522;
  let points = 1000;

  const server = await startFakeHttpServer((req: RecordedRequest, res) => {
    const reply = (status: number, text: string) => {
      res.writeHead(status, { "Content-Type": "text/plain; charset=UTF-8" });
      res.end(text);
    };
    const url = new URL(req.url, "http://mitake.invalid");
    if (req.method !== "POST" || url.pathname !== "/api/mtk/SmSend") return reply(404, "Not Found");

    const fault = faults.shift();
    if (fault === "http-503") return reply(503, "Service Unavailable");
    if (fault === "system-error") return reply(200, answer(["statuscode=*"]));

    // Only the UTF-8 form is accepted here: the adapter always sends CharsetURL=UTF8.
    const contentType = req.headers["content-type"] ?? "";
    if (
      url.search !== "?CharsetURL=UTF8" ||
      contentType.split(";")[0]?.trim() !== "application/x-www-form-urlencoded"
    ) {
      return reply(200, answer(["statuscode=y", "Error=參數錯誤"]));
    }
    const form = new URLSearchParams(req.body.toString("utf8"));
    if (!form.get("username")) return reply(200, answer(["statuscode=c", "Error=請輸入帳號"]));
    if (!form.get("password")) return reply(200, answer(["statuscode=d", "Error=請輸入密碼"]));
    if (form.get("username") !== credentials.username || form.get("password") !== credentials.password) {
      return reply(200, answer(["statuscode=e", "Error=帳號、密碼錯誤"]));
    }
    const dstaddr = form.get("dstaddr") ?? "";
    if (!/^09\d{8}$/.test(dstaddr)) return reply(200, answer(["statuscode=v", "Error=無效的手機號碼"]));
    const smbody = form.get("smbody") ?? "";
    if (!smbody.trim()) return reply(200, answer(["statuscode=u", "Error=簡訊內容不得為空白"]));

    const clientid = form.get("clientid");
    const previous = clientid ? answers.get(clientid) : undefined;
    if (previous) return reply(200, answer([...previous, "Duplicate=Y"]));

    const msgid = String(nextMsgid++);
    points -= 1;
    accepted.push({ msgid, dstaddr, smbody, clientid });
    const lines = [`msgid=${msgid}`, "statuscode=1", `AccountPoint=${points}`];
    if (clientid) answers.set(clientid, lines);
    if (fault === "lose-response") {
      res.socket?.destroy();
      return;
    }
    reply(200, answer(lines));
  });

  return {
    ...server,
    accepted,
    fail(...more) {
      faults.push(...more);
    },
  };
}
