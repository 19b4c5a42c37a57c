import { describe, expect, it } from "vitest";
import { channelFor } from "./messages.server";

const day = new Date("2026-12-07T04:00:00Z"); // 12:00 Taipei
const night = new Date("2026-12-07T14:00:00Z"); // 22:00 Taipei
const memberOf = (over: Partial<Parameters<typeof channelFor>[0]>) => ({
  memberId: "m",
  lineUserId: null,
  following: null,
  memberPhone: "+886912345678",
  memberEmail: "a@example.test",
  guestPhone: null,
  ...over,
});

describe("the channel of a booking's message (LINE → SMS → e-mail; no SMS 21:00–09:00)", () => {
  it("LINE when linked and following and LINE is on, day or night", () => {
    const linked = memberOf({ lineUserId: "U1", following: true });
    expect(channelFor(linked, true, day)).toBe("line");
    expect(channelFor(linked, true, night)).toBe("line");
    expect(channelFor(linked, false, day)).toBe("sms");
    expect(channelFor(memberOf({ lineUserId: "U1", following: false }), true, day)).toBe("sms");
  });

  it("SMS waits at night; e-mail when there is no phone; a guest by SMS", () => {
    expect(channelFor(memberOf({}), true, night)).toBe("wait");
    expect(channelFor(memberOf({ memberPhone: null }), true, night)).toBe("email");
    expect(channelFor(memberOf({ memberPhone: null, memberEmail: null }), true, day)).toBeNull();
    const guest = memberOf({ memberId: null, memberPhone: null, memberEmail: null, guestPhone: "+886955000111" });
    expect(channelFor(guest, true, day)).toBe("sms");
    expect(channelFor(guest, true, night)).toBe("wait");
  });
});
