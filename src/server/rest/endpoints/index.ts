import { serviceEndpoints } from "./service";
import { tagEndpoints } from "./tags";

/** Every REST operation, for the OpenAPI document and the fuzz test. Add each domain's group here. */
export const endpointGroups = {
  service: serviceEndpoints,
  tags: tagEndpoints,
};
