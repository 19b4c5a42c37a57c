import { describe, expect, it } from "vitest";
import { coalescedBody } from "./coalesced-body.server";

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe("coalescedBody", () => {
  it("passes the pieces written in one turn on as one chunk, and later pieces as the next", async () => {
    let ended = 0;
    const body = coalescedBody(() => ended++);
    const chunks: Buffer[] = [];
    body.on("data", (chunk: Buffer) => chunks.push(chunk));
    const done = new Promise((resolve) => body.on("end", resolve));

    for (let i = 0; i < 30; i++) body.write(new TextEncoder().encode(`<p>${i}</p>`));
    await nextTurn();
    await nextTurn();
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.toString()).toBe(Array.from({ length: 30 }, (_, i) => `<p>${i}</p>`).join(""));

    body.write(new TextEncoder().encode("<template>late</template>"));
    body.end(new TextEncoder().encode("</html>"));
    await done;
    expect(chunks.map(String)).toEqual([chunks[0]?.toString(), "<template>late</template></html>"]);
    expect(ended).toBe(1);
  });

  it("ends with nothing pending when the last piece came in an earlier turn", async () => {
    let ended = 0;
    const body = coalescedBody(() => ended++);
    const chunks: string[] = [];
    body.on("data", (chunk: Buffer) => chunks.push(String(chunk)));
    body.write(new TextEncoder().encode("all"));
    await nextTurn();
    await nextTurn();
    body.end();
    await new Promise((resolve) => body.on("end", resolve));
    expect(chunks).toEqual(["all"]);
    expect(ended).toBe(1);
  });
});
