import { z } from "zod";

export const template = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    image_uri: z.string(),
    graph_config_path: z.string(),
  })
  .meta({ id: "Template" });
export type Template = z.infer<typeof template>;
