// Runs inside a build's sandbox, whose network namespace has only loopback: listens on the
// loopback ports given (the egress proxy's, a loopback registry's) and relays each connection
// to a Unix socket the worker serves outside, then runs the command and exits with its code.
// The worker asks for a graceful stop by closing this process's stdin: the command gets
// SIGTERM (buildah removes its working container), then the sandbox ends with this process.
//
//   node forwarder.mjs 127.0.0.1:3128=/hangar/egress.sock [...] -- buildah bud ...
import net from "node:net";
import { spawn } from "node:child_process";

const split = process.argv.indexOf("--");
const routes = process.argv.slice(2, split);
const [command, ...args] = process.argv.slice(split + 1);

await Promise.all(
  routes.map((route) => {
    const [listen, socketPath] = route.split("=");
    const at = listen.lastIndexOf(":");
    const server = net.createServer((client) => {
      const upstream = net.connect(socketPath);
      client.on("error", () => upstream.destroy());
      upstream.on("error", () => client.destroy());
      client.pipe(upstream).pipe(client);
    });
    return new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen(Number(listen.slice(at + 1)), listen.slice(0, at), resolve);
    });
  }),
);

const child = spawn(command, args, { stdio: ["ignore", "inherit", "inherit"] });
child.on("error", (error) => {
  console.error(`${command}: ${error.message}`);
  process.exit(127);
});
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 128 + 15 : 1)));
process.stdin.on("data", () => undefined);
process.stdin.on("end", () => child.kill("SIGTERM"));
process.on("SIGTERM", () => child.kill("SIGTERM"));
