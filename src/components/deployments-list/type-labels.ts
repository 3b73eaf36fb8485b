import type { DeploymentType } from "./list-params";

export const typeLabels: Record<DeploymentType, string> = {
  dev_free: "Dev (free)",
  dev: "Dev",
  prod: "Production",
};
