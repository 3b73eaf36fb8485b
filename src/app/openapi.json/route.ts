import { openApiDocument } from "@/server/openapi/document";

export function GET() {
  return Response.json(openApiDocument());
}
