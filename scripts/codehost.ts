import { DEFAULT_TOKEN, startCodehostServer } from "../testing/codehost-server";

// `npm run codehost`: a local code host with sample repositories, to connect Hangar to.
const port = Number(process.env.PORT ?? 4010);
const token = process.env.CODEHOST_TOKEN ?? DEFAULT_TOKEN;
const extraRepos = Number(process.env.CODEHOST_EXTRA_REPOS ?? 0);

const server = await startCodehostServer({
  port,
  host: process.env.HOST ?? "127.0.0.1",
  tokens: [token],
  extraRepos,
});

console.log(`Code host listening.

  api_base_url  ${server.url}
  token         ${token}
  archive host  ${server.archiveUrl} (tarballs redirect there)

Repositories (branches main and dev; langgraph.json at the root except in Zeta/no-config):
${server.repos
  .slice(0, 10)
  .map((r) => `  ${r.owner}/${r.name}`)
  .join("\n")}${server.repos.length > 10 ? `\n  ... and ${server.repos.length - 10} more` : ""}

Connect it to Hangar:
  curl -X POST http://localhost:3000/v1/integrations/codehost \\
    -H "X-Api-Key: $HANGAR_API_KEY" -H "Content-Type: application/json" \\
    -d '{"name": "local", "api_base_url": "${server.url}", "token": "${token}"}'
`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void server.stop().then(() => process.exit(0)));
}
