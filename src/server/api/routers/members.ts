import { z } from "zod";
import {
  addedMember,
  addMemberInput,
  changedMember,
  changeRoleInput,
  member,
  memberIdInput,
  removedMember,
  setOrgRoleInput,
} from "@/schemas/members";
import * as members from "@/server/services/members";
import { createRouter, orgAdminProcedure, workspaceProcedure } from "../trpc";

export const membersRouter = createRouter({
  list: workspaceProcedure
    .output(z.array(member))
    .query(({ ctx }) => members.listMembers(ctx.db, ctx.actor)),
  add: workspaceProcedure
    .input(addMemberInput)
    .output(addedMember)
    .mutation(({ ctx, input }) => members.addMember(ctx.db, ctx.actor, input)),
  changeRole: workspaceProcedure
    .input(changeRoleInput)
    .output(changedMember)
    .mutation(({ ctx, input }) => members.changeRole(ctx.db, ctx.actor, input)),
  setOrgRole: orgAdminProcedure
    .input(setOrgRoleInput)
    .output(changedMember)
    .mutation(({ ctx, input }) => members.setOrganizationRole(ctx.db, ctx.actor, input)),
  remove: workspaceProcedure
    .input(memberIdInput)
    .output(removedMember)
    .mutation(({ ctx, input }) => members.removeMember(ctx.db, ctx.actor, input.userId)),
});
