"use client";

// When the root layout itself fails: plain markup and inline styles, as the app's own components
// and stylesheet belong to what failed. Also replaces Next's built-in page, whose code (styles,
// ISR handling) every page's first load would otherwise download.
export default function GlobalError({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  return (
    <html lang="en">
      <body
        style={{ fontFamily: "system-ui, sans-serif", textAlign: "center", padding: "4rem 1rem" }}
      >
        <main role="alert">
          <h1 style={{ fontSize: "1.125rem" }}>Something went wrong</h1>
          <p>
            Hangar could not be loaded. Try again; if it keeps failing, check the server log
            {error.digest ? ` (reference ${error.digest})` : ""}.
          </p>
          <button type="button" onClick={reset}>
            Try again
          </button>
        </main>
      </body>
    </html>
  );
}
