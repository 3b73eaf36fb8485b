// `npm run hangar -- <command>`: the admin command. It administers organizations, workspaces,
// users, members and API keys through the same services as the dashboard, as the operator.
import path from "node:path";
import { Command, InvalidArgumentError } from "commander";
import { z } from "zod";
import {
  createApiKeyInput,
  keyOrgRoleSchema,
  orgRoleSchema,
  roleSchema,
  type ApiKey,
  type OrgRoleName,
  type RoleName,
} from "@/schemas/api-keys";
import { emailSchema, passwordSchema } from "@/schemas/members";
import { createUserInput } from "@/schemas/users";
import { createOrganizationInput } from "@/schemas/workspaces";
import { createDb, type Db } from "@/server/db";
import { resolveDatabase, type Database } from "@/server/db/embedded";
import { migrate } from "@/server/db/migrate";
import { AppError } from "@/server/errors";
import * as apiKeys from "@/server/services/api-keys";
import { addMember, setOrganizationRole } from "@/server/services/members";
import {
  newOperator,
  operatorActor,
  operatorInOrganization,
  type Operator,
} from "@/server/services/operator";
import * as organizations from "@/server/services/organizations";
import { createUser } from "@/server/services/users";
import * as workspaces from "@/server/services/workspaces";

interface Output {
  json: unknown;
  text: string;
}

/** Commander parser for one option, validated by the same zod schema the services use. */
const arg =
  <T>(schema: z.ZodType<T>) =>
  (value: string): T => {
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw new InvalidArgumentError(parsed.error.issues[0]?.message ?? "");
    return parsed.data;
  };
const id = arg(z.uuid());
const name = arg(createOrganizationInput.shape.name);
const role = arg(roleSchema);
const orgRole = arg(orgRoleSchema);
const keyOrgRole = arg(keyOrgRoleSchema);
const email = arg(emailSchema);
const password = arg(passwordSchema);

const program = new Command("hangar")
  .description("Administer a Hangar installation (DATABASE_URL, else the embedded database)")
  .option("--json", "print JSON for machines instead of lines for people")
  .showHelpAfterError();

/** Opens the database (migrated), runs one command as the operator, prints, closes. */
function run<O>(command: (db: Db, operator: Operator, options: O) => Promise<Output>) {
  return async (options: O, cmd: Command) => {
    const json = Boolean(cmd.optsWithGlobals().json);
    const dataDir = path.resolve(process.env.HANGAR_DATA_DIR ?? ".data");
    let database: Database | undefined;
    let db: Db | undefined;
    try {
      database = await resolveDatabase(dataDir);
      db = createDb(database.url, 2);
      await migrate(database.url);
      const out = await command(db, newOperator(), options);
      console.log(json ? JSON.stringify(out.json, null, 2) : out.text);
    } catch (error) {
      // Domain errors carry the REST body's shape; anything else (e.g. no database) its message.
      const detail = (error as Error).message;
      const code = error instanceof AppError ? error.code : "internal";
      console.error(json ? JSON.stringify({ detail, code }) : `error: ${detail}`);
      process.exitCode = 1;
    } finally {
      await db?.$disconnect();
      await database?.close();
    }
  };
}

/** The operator acting as an admin of one workspace. */
async function inWorkspace(db: Db, operator: Operator, workspaceId: string) {
  const ws = await workspaces.getWorkspace(db, workspaceId);
  return {
    ws,
    actor: operatorActor(operator, { organizationId: ws.organization_id, workspaceId }),
  };
}

const table = (rows: string[][]) =>
  rows.length ? rows.map((r) => r.join("  ")).join("\n") : "(none)";

const org = program.command("org").description("organizations");
org
  .command("create")
  .requiredOption("--name <name>", "organization name", name)
  .action(
    run(async (db, operator, o: { name: string }) => {
      const created = await organizations.createOrganization(db, operator, o);
      return { json: created, text: `Created organization ${created.id} (${created.name})` };
    }),
  );
org.command("list").action(
  run(async (db) => {
    const list = await organizations.listOrganizations(db);
    return { json: list, text: table(list.map((o) => [o.id, o.name])) };
  }),
);

const workspace = program.command("workspace").description("workspaces of an organization");
workspace
  .command("create")
  .requiredOption("--org <id>", "organization id", id)
  .requiredOption("--name <name>", "workspace name", name)
  .action(
    run(async (db, operator, o: { org: string; name: string }) => {
      await organizations.getOrganization(db, o.org);
      const actor = operatorInOrganization(operator, o.org);
      const created = await workspaces.createWorkspace(db, actor, { name: o.name });
      return { json: created, text: `Created workspace ${created.id} (${created.name})` };
    }),
  );
workspace
  .command("list")
  .option("--org <id>", "only this organization's workspaces", id)
  .action(
    run(async (db, _operator, o: { org?: string }) => {
      if (o.org) await organizations.getOrganization(db, o.org);
      const list = await workspaces.listWorkspaces(db, o.org);
      return { json: list, text: table(list.map((w) => [w.id, w.organization_id, w.name])) };
    }),
  );

program
  .command("user")
  .description("user accounts")
  .command("create")
  .requiredOption("--email <email>", "sign-in email", email)
  .option("--password <password>", "password (or set HANGAR_NEW_USER_PASSWORD)", password)
  .option("--name <name>", "display name", arg(createUserInput.shape.name))
  .action(
    run(async (db, _operator, o: { email: string; password?: string; name?: string }) => {
      const secret = o.password ?? process.env.HANGAR_NEW_USER_PASSWORD;
      if (!secret)
        throw new AppError("bad_request", "Give --password or HANGAR_NEW_USER_PASSWORD.");
      const created = await createUser(db, { ...o, password: password(secret) });
      return { json: created, text: `Created user ${created.id} (${created.email})` };
    }),
  );

const member = program.command("member").description("workspace members");
member
  .command("org-role")
  .description("set a member's organization role (providers and integrations)")
  .requiredOption("--workspace <id>", "a workspace of the organization the user is a member of", id)
  .requiredOption("--user <id>", "user id", id)
  .requiredOption("--org-role <role>", "owner, admin or member", orgRole)
  .action(
    run(async (db, operator, o: { workspace: string; user: string; orgRole: OrgRoleName }) => {
      const { actor } = await inWorkspace(db, operator, o.workspace);
      const updated = await setOrganizationRole(db, actor, { userId: o.user, role: o.orgRole });
      const narrowed = updated.api_keys_narrowed
        ? ` (${updated.api_keys_narrowed} of their API keys narrowed)`
        : "";
      return {
        json: updated,
        text: `${updated.email} is now organization ${updated.org_role}${narrowed}`,
      };
    }),
  );
member
  .command("add")
  .requiredOption("--workspace <id>", "workspace id", id)
  .requiredOption("--email <email>", "the user's email (a new account is made if unknown)", email)
  .requiredOption("--role <role>", "admin, editor or viewer", role)
  .option("--password <password>", "initial password for a new account", password)
  .option("--org-role <role>", "organization role: owner, admin or member (default)", orgRole)
  .action(
    run(
      async (
        db,
        operator,
        o: {
          workspace: string;
          email: string;
          role: RoleName;
          password?: string;
          orgRole?: OrgRoleName;
        },
      ) => {
        const { ws, actor } = await inWorkspace(db, operator, o.workspace);
        const added = await addMember(db, actor, {
          email: o.email,
          role: o.role,
          password: o.password,
        });
        if (o.orgRole)
          added.member = await setOrganizationRole(db, actor, {
            userId: added.member.user_id,
            role: o.orgRole,
          });
        const lines = [
          `Added ${added.member.email} to ${ws.name} as ${added.member.role} (organization ${added.member.org_role})`,
        ];
        if (added.created_user) lines.push("A new account was created for this email.");
        if (added.initial_password) lines.push(`Initial password: ${added.initial_password}`);
        return { json: added, text: lines.join("\n") };
      },
    ),
  );

const apikey = program.command("apikey").description("API keys");
const scope = (o: { workspace?: string; org?: string }) => {
  if (Boolean(o.workspace) === Boolean(o.org))
    throw new AppError("bad_request", "Give exactly one of --workspace <id> or --org <id>.");
};
const keyRow = (k: ApiKey) => [
  k.id,
  `${k.prefix}…`,
  k.name,
  k.kind,
  k.role,
  k.revoked_at ? "revoked" : "active",
];

apikey
  .command("create")
  .option("--workspace <id>", "bind the key to this workspace", id)
  .option("--org <id>", "an organization-scoped key (callers send X-Tenant-Id)", id)
  .requiredOption("--role <role>", "admin, editor or viewer", role)
  .option("--org-role <role>", "organization role: admin or member (default)", keyOrgRole)
  .requiredOption("--name <name>", "what the key is for", arg(createApiKeyInput.shape.name))
  .action(
    run(
      async (
        db,
        operator,
        o: {
          workspace?: string;
          org?: string;
          role: RoleName;
          orgRole?: "admin" | "member";
          name: string;
        },
      ) => {
        scope(o);
        // The operator is nobody's member: its keys are service keys.
        const input = {
          name: o.name,
          kind: "service" as const,
          role: o.role,
          org_role: o.orgRole ?? "member",
        };
        let created;
        if (o.org) created = await apiKeys.createOrganizationApiKey(db, operator, o.org, input);
        else {
          const { actor } = await inWorkspace(db, operator, o.workspace!);
          created = await apiKeys.createApiKey(db, actor, input);
        }
        const text = [
          `Created API key ${created.id} (${created.name}, ${created.role})`,
          created.key,
          "Store it now: it is not shown again.",
        ];
        return { json: created, text: text.join("\n") };
      },
    ),
  );
apikey
  .command("list")
  .option("--workspace <id>", "keys of this workspace", id)
  .option("--org <id>", "organization-scoped keys of this organization", id)
  .action(
    run(async (db, operator, o: { workspace?: string; org?: string }) => {
      scope(o);
      let list;
      if (o.org) list = await apiKeys.listOrganizationApiKeys(db, o.org);
      else {
        const { actor } = await inWorkspace(db, operator, o.workspace!);
        list = await apiKeys.listApiKeys(db, actor);
      }
      return { json: list, text: table(list.map(keyRow)) };
    }),
  );
apikey
  .command("revoke")
  .requiredOption("--id <id>", "API key id", id)
  .action(
    run(async (db, operator, o: { id: string }) => {
      const revoked = await apiKeys.revokeAnyApiKey(db, operator, o.id);
      return { json: revoked, text: `Revoked API key ${revoked.id} (${revoked.name})` };
    }),
  );

await program.parseAsync();
