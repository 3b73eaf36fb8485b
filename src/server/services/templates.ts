import type { Template } from "@/schemas/templates";

/** The built-in templates a deployment with source `internal_template` starts from. */
export const templates: Template[] = [
  {
    id: "react-agent",
    name: "ReAct agent",
    description: "A tool-calling agent that reasons and acts in a loop.",
    image_uri: "registry.hangar.dev/templates/react-agent:1.4.0",
    graph_config_path: "langgraph.json",
  },
  {
    id: "retrieval-agent",
    name: "Retrieval agent",
    description: "Answers questions over your documents with retrieval-augmented generation.",
    image_uri: "registry.hangar.dev/templates/retrieval-agent:1.2.1",
    graph_config_path: "langgraph.json",
  },
  {
    id: "memory-agent",
    name: "Memory agent",
    description: "A chat agent that keeps long-term memory per user.",
    image_uri: "registry.hangar.dev/templates/memory-agent:0.9.3",
    graph_config_path: "langgraph.json",
  },
  {
    id: "data-enrichment",
    name: "Data enrichment",
    description: "Researches the web to fill in structured records.",
    image_uri: "registry.hangar.dev/templates/data-enrichment:1.0.0",
    graph_config_path: "langgraph.json",
  },
];

export function listTemplates(): Template[] {
  return templates;
}

export function findTemplate(id: string): Template | undefined {
  return templates.find((t) => t.id === id);
}
