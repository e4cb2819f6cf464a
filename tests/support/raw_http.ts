/**
 * Raw HTTP/1.1 over TCP, for requests `fetch` will not send as written (a forged `Host`, for one).
 *
 * @module
 */

/** Sends one request with exactly these headers and returns the status code and body. */
export async function rawRequest(
  port: number,
  request: { method: string; path: string; headers: Record<string, string>; body?: string },
): Promise<{ status: number; body: string }> {
  const connection = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    const body = request.body ?? "";
    const headers = { ...request.headers, "content-length": String(new TextEncoder().encode(body).length) };
    const head = [`${request.method} ${request.path} HTTP/1.1`, "connection: close"]
      .concat(Object.entries(headers).map(([name, value]) => `${name}: ${value}`))
      .join("\r\n");
    await connection.write(new TextEncoder().encode(`${head}\r\n\r\n${body}`));
    let text = "";
    const decoder = new TextDecoder();
    const buffer = new Uint8Array(16 * 1024);
    while (true) {
      const read = await connection.read(buffer);
      if (read === null) break;
      text += decoder.decode(buffer.subarray(0, read), { stream: true });
    }
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? "0");
    return { status, body: text.slice(text.indexOf("\r\n\r\n") + 4) };
  } finally {
    try {
      connection.close();
    } catch {
      // already closed by the peer
    }
  }
}
