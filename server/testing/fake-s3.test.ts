import { describe, expect, it } from "vitest";
import { databaseMediaStore, s3MediaStore } from "../../app/domain/images/storage.server";
import { expectedSignature, startFakeS3 } from "./fake-s3";

describe("the fake S3 server's SigV4 check", () => {
  it("computes the signature of AWS's documented example (GET Object)", () => {
    const signature = expectedSignature(
      {
        method: "GET",
        path: "/test.txt",
        query: "",
        headers: {
          host: "examplebucket.s3.amazonaws.com",
          range: "bytes=0-9",
          "x-amz-content-sha256": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
          "x-amz-date": "20130524T000000Z",
        },
        payloadHash: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      },
      ["host", "range", "x-amz-content-sha256", "x-amz-date"],
      { date: "20130524", region: "us-east-1", service: "s3" },
      "20130524T000000Z",
      "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    );
    expect(signature).toBe("f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
  });
});

describe("the S3 media store against the fake server", () => {
  it("puts, gets and removes objects with signed requests; a wrong secret is refused", async () => {
    const s3 = await startFakeS3();
    try {
      const settings = {
        storage: "s3" as const,
        endpoint: s3.endpoint,
        region: s3.region,
        bucket: s3.bucket,
        accessKeyId: s3.accessKeyId,
        secretAccessKey: s3.secretAccessKey,
      };
      const store = s3MediaStore(settings);
      const db = null as never;
      const body = new Uint8Array([1, 2, 3, 4, 5]);
      await store.put(db, "media/abc/480.webp", body, "image/webp");
      expect(s3.objects.get("media/abc/480.webp")?.contentType).toBe("image/webp");
      const read = await store.get(db, "media/abc/480.webp");
      expect(read && [...read.body]).toEqual([1, 2, 3, 4, 5]);
      expect(read?.contentType).toBe("image/webp");
      expect(await store.get(db, "media/abc/960.webp")).toBeNull();
      await store.remove(db, ["media/abc/480.webp"]);
      expect(s3.objects.size).toBe(0);

      const wrong = s3MediaStore({ ...settings, secretAccessKey: "not-the-secret-key-at-all-0000000000" });
      await expect(wrong.put(db, "media/abc/1.jpg", body, "image/jpeg")).rejects.toThrow(/403/);
      await expect(wrong.get(db, "media/abc/1.jpg")).rejects.toThrow(/SignatureDoesNotMatch/);
      expect(s3.objects.size).toBe(0);
      expect(databaseMediaStore.transactional).toBe(true);
      expect(store.transactional).toBe(false);
    } finally {
      await s3.close();
    }
  });
});
