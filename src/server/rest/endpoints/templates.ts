import { z } from "zod";
import { template } from "@/schemas/templates";
import { defineEndpoint } from "../endpoint";

export const templateEndpoints = {
  list: defineEndpoint({
    method: "GET",
    path: "/v2/templates",
    operationId: "listTemplates",
    summary: "List the built-in templates (source internal_template)",
    tag: "Templates",
    response: z.array(template),
    status: 200,
    errors: [],
  }),
};
