export default function HomePage() {
  return (
    <main className="mx-auto max-w-2xl p-10">
      <h1 className="text-2xl font-semibold">Hangar</h1>
      <p className="mt-2 text-zinc-600 dark:text-zinc-400">
        The control plane for agent deployments. The REST API is described at{" "}
        <a className="underline" href="/openapi.json">
          /openapi.json
        </a>
        .
      </p>
    </main>
  );
}
