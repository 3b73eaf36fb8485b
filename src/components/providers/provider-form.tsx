"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { Alert } from "@/components/ui/alert";
import { CheckboxField } from "@/components/ui/checkbox";
import { FormField, formErrors } from "@/components/ui/form-field";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useMemo, useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "@/components/ui/toast";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { tokenEndpointAuthMethods, type OAuthProvider } from "@/schemas/oauth-providers";
import { apiFailure, issuesByPath } from "@/trpc/errors";
import { useTRPC } from "@/trpc/react";
import {
  authMethodLabels,
  emptyProvider,
  fieldOfMessage,
  formValuesOf,
  hasStoredSecret,
  providerFormSchema,
  providerTypeLabels,
  toCreateInput,
  toUpdateInput,
  type ProviderFormValues,
} from "./provider-form-model";
import { RulesPanel } from "./rules-panel";

/** Create (no provider) or edit an OAuth provider; read-only for viewers. */
export function ProviderForm({
  provider,
  canEdit,
}: {
  provider?: OAuthProvider;
  canEdit: boolean;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const secretStored = provider ? hasStoredSecret(provider) : false;
  const schema = useMemo(() => providerFormSchema(secretStored), [secretStored]);
  const form = useForm<ProviderFormValues>({
    resolver: zodResolver(schema, formErrors),
    mode: "onChange",
    defaultValues: provider ? formValuesOf(provider) : emptyProvider,
  });
  const [failure, setFailure] = useState<string | null>(null);
  const { errors, isDirty } = form.formState;
  const values = form.watch();

  const onError = (error: unknown) => {
    const failed = apiFailure(error);
    const fields = issuesByPath(failed.issues);
    let placed = false;
    for (const [path, msg] of Object.entries(fields)) {
      if (path in emptyProvider) {
        form.setError(path as keyof ProviderFormValues, { message: msg }, { shouldFocus: !placed });
        placed = true;
      }
    }
    const field = placed ? null : fieldOfMessage(failed.message);
    if (field) form.setError(field, { message: failed.message }, { shouldFocus: true });
    setFailure(placed || field ? null : failed.message);
    toast.error(provider ? "Could not save the provider" : "Could not create the provider");
  };
  const done = async (saved: OAuthProvider, verb: string) => {
    toast.success(`${verb} ${saved.name}`);
    await queryClient.invalidateQueries({ queryKey: trpc.oauthProviders.pathKey() });
  };
  const create = useMutation(
    trpc.oauthProviders.create.mutationOptions({
      onSuccess: async (saved) => {
        await done(saved, "Created");
        router.push("/providers");
      },
      onError,
    }),
  );
  const update = useMutation(
    trpc.oauthProviders.update.mutationOptions({
      onSuccess: async (saved) => {
        await done(saved, "Saved");
        form.reset(formValuesOf(saved));
        router.refresh();
      },
      onError,
    }),
  );
  const pending = create.isPending || update.isPending;

  const submit = form.handleSubmit((v) => {
    setFailure(null);
    if (provider) update.mutate({ providerId: provider.provider_id, patch: toUpdateInput(v) });
    else create.mutate(toCreateInput(v));
  });
  const isNone = values.token_endpoint_auth_method === "none";
  const reg = form.register;

  return (
    <div className="grid gap-6 lg:grid-cols-[1fr_18rem]">
      <form
        noValidate
        onSubmit={submit}
        aria-label={provider ? "Edit OAuth provider" : "New OAuth provider"}
      >
        <fieldset disabled={!canEdit} className="space-y-6">
          {failure && <Alert>{failure}</Alert>}
          <Card>
            <CardHeader
              title="Provider"
              description="How agents and the API refer to this provider."
            />
            <CardBody className="grid gap-5 sm:grid-cols-2">
              <FormField
                id="provider-id"
                label="Provider ID"
                hint={
                  provider
                    ? "The provider ID cannot be changed."
                    : "Letters, digits, _ . - ; unique in the organization."
                }
                error={errors.provider_id?.message}
              >
                {(aria) => (
                  <Input
                    {...aria}
                    className="font-mono"
                    readOnly={!!provider}
                    autoComplete="off"
                    {...reg("provider_id")}
                  />
                )}
              </FormField>
              <FormField id="provider-name" label="Display name" error={errors.name?.message}>
                {(aria) => <Input {...aria} autoComplete="off" {...reg("name")} />}
              </FormField>
              <FormField
                id="provider-type"
                label="Provider type"
                error={errors.provider_type?.message}
              >
                {(aria) => (
                  <Select {...aria} className="w-full" {...reg("provider_type")}>
                    {Object.entries(providerTypeLabels).map(([value, label]) => (
                      <option key={value} value={value}>
                        {label}
                      </option>
                    ))}
                  </Select>
                )}
              </FormField>
            </CardBody>
          </Card>
          <Card>
            <CardHeader title="Endpoints" />
            <CardBody className="grid gap-5">
              <FormField id="auth-url" label="Authorization URL" error={errors.auth_url?.message}>
                {(aria) => (
                  <Input {...aria} type="url" placeholder="https://" {...reg("auth_url")} />
                )}
              </FormField>
              <FormField id="token-url" label="Token URL" error={errors.token_url?.message}>
                {(aria) => (
                  <Input {...aria} type="url" placeholder="https://" {...reg("token_url")} />
                )}
              </FormField>
              <FormField
                id="mcp-server-url"
                label="MCP server URL (optional)"
                error={errors.mcp_server_url?.message}
              >
                {(aria) => (
                  <Input {...aria} type="url" placeholder="https://" {...reg("mcp_server_url")} />
                )}
              </FormField>
            </CardBody>
          </Card>
          <Card>
            <CardHeader
              title="Client"
              description="The credentials Hangar presents at the token endpoint."
            />
            <CardBody className="grid gap-5 sm:grid-cols-2">
              <FormField id="client-id" label="Client ID" error={errors.client_id?.message}>
                {(aria) => (
                  <Input {...aria} className="font-mono" autoComplete="off" {...reg("client_id")} />
                )}
              </FormField>
              <FormField
                id="auth-method"
                label="Token endpoint auth method"
                error={errors.token_endpoint_auth_method?.message}
              >
                {(aria) => (
                  <Select
                    {...aria}
                    className="w-full"
                    {...reg("token_endpoint_auth_method", { deps: ["client_secret", "uses_pkce"] })}
                  >
                    {tokenEndpointAuthMethods.map((m) => (
                      <option key={m} value={m}>
                        {authMethodLabels[m]}
                      </option>
                    ))}
                  </Select>
                )}
              </FormField>
              <FormField
                id="client-secret"
                label="Client secret"
                className="space-y-1.5 sm:col-span-2"
                hint={
                  isNone
                    ? "A public client has no secret: leave this empty."
                    : secretStored
                      ? "A secret is set — enter a new one to replace it."
                      : "Write-only: stored encrypted and never shown again."
                }
                error={errors.client_secret?.message}
              >
                {(aria) => (
                  <Input
                    {...aria}
                    type="password"
                    autoComplete="new-password"
                    placeholder={secretStored && !isNone ? "••••••••  (unchanged)" : undefined}
                    {...reg("client_secret")}
                  />
                )}
              </FormField>
              <CheckboxField
                id="uses-pkce"
                label="Use PKCE"
                hint="Proof Key for Code Exchange; required for public clients."
                error={errors.uses_pkce?.message}
                {...reg("uses_pkce", { deps: ["client_secret"] })}
              />
              {values.uses_pkce && (
                <FormField
                  id="challenge-method"
                  label="Code challenge method"
                  error={errors.code_challenge_method?.message}
                >
                  {(aria) => (
                    <Select {...aria} className="w-full" {...reg("code_challenge_method")}>
                      <option value="S256">S256 (recommended)</option>
                      <option value="plain">plain</option>
                    </Select>
                  )}
                </FormField>
              )}
            </CardBody>
          </Card>
          {canEdit && (
            <div className="flex justify-end gap-2">
              <Button variant="secondary" onClick={() => router.push("/providers")}>
                Cancel
              </Button>
              <Button type="submit" disabled={pending || (!!provider && !isDirty)}>
                {pending ? "Saving…" : provider ? "Save changes" : "Create provider"}
              </Button>
            </div>
          )}
        </fieldset>
      </form>
      <RulesPanel values={values} secretStored={secretStored} />
    </div>
  );
}
