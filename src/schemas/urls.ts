import { z } from "zod";
import { TEXT_LIMITS } from "./limits";
import { ingressHost, isHttpUrl, isSecureUrl } from "./web-url";

// The URL schemas of the API and the forms, over the one URL rule (web-url.ts).

/** URL text checked by `check`; a refusal is a URL format issue (422 type `url_parsing`). */
const urlText = (check: (value: string) => boolean, message: string) =>
  z
    .string()
    .max(TEXT_LIMITS.url)
    .superRefine((value, ctx) => {
      if (!check(value))
        ctx.addIssue({ code: "invalid_format", format: "url", message, input: value });
    })
    .meta({ format: "uri" });

export const secureUrl = urlText(
  isSecureUrl,
  "Must be an absolute https URL (http is allowed only for localhost)",
);

export const httpUrl = urlText(
  isHttpUrl,
  "Must be an absolute http or https URL without credentials",
);

export const deploymentUrl = urlText(
  (value) => ingressHost(value) !== null,
  "Must be an absolute http or https URL whose host is a DNS name (no IP address, no credentials)",
);
