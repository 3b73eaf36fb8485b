import { auditEventPage, listAuditEventsInput } from "@/schemas/audit";
import { listAuditEvents } from "@/server/services/audit/list";
import { createRouter, workspaceProcedure } from "../trpc";

export const auditRouter = createRouter({
  list: workspaceProcedure
    .input(listAuditEventsInput)
    .output(auditEventPage)
    .query(({ ctx, input }) => listAuditEvents(ctx.db, ctx.actor, input)),
});
