// Serves the bench baseline (bench/minimal, built by bench/run.js) on the same stack as our app:
// Express 5 + compression + express.static for the client build + @react-router/express.
// Usage: PORT=3001 NODE_ENV=production node bench/serve-minimal.js <buildDirectory>
import path from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express from "express";

const buildDir = path.resolve(process.argv[2] ?? "");
const port = Number(process.env.PORT ?? 0);
const host = process.env.HOST ?? "127.0.0.1";
const build = await import(pathToFileURL(path.join(buildDir, "server/index.js")).href);
const clientDir = path.join(buildDir, "client");

const app = express();
app.disable("x-powered-by");
app.use(compression());
app.use("/assets", express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false }));
app.use(express.static(clientDir, { maxAge: "1h", index: false }));
app.all("/{*splat}", createRequestHandler({ build }));

const server = app.listen(port, host, () => {
  const address = server.address();
  console.log(`minimal baseline listening on http://${host}:${typeof address === "object" ? address?.port : port}`);
});
server.keepAliveTimeout = 65_000;
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
