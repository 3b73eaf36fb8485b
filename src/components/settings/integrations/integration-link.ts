/** The element id of an integration's card on Settings → Integrations, and a link to it. */
export const integrationAnchor = (id: string) => `integration-${id}`;
export const integrationHref = (id: string) => `/settings/integrations#${integrationAnchor(id)}`;
