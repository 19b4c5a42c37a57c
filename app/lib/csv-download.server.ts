/**
 * A CSV file answered as a streamed download (the rejected rows of an import or of a bulk grant): the lines come
 * from an async iterator (each already written with `csvCell`, so formula cells are neutralised; the first with
 * its byte-order mark), sent 500 lines a chunk, each ending CRLF. A client that goes away stops the iterator.
 */
export function csvDownload(source: AsyncIterable<string>, filename: string): Response {
  const lines = source[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const chunk: string[] = [];
      for (let i = 0; i < 500; i++) {
        const next = await lines.next();
        if (next.done) {
          if (chunk.length) controller.enqueue(encoder.encode(chunk.join("")));
          controller.close();
          return;
        }
        chunk.push(next.value.endsWith("\n") ? next.value : `${next.value}\r\n`);
      }
      controller.enqueue(encoder.encode(chunk.join("")));
    },
    async cancel() {
      await lines.return?.(undefined);
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
