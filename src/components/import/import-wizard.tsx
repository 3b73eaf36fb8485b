"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert } from "@/components/ui/alert";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { toast } from "@/components/ui/toast";
import { Button } from "@/components/ui/button";
import { Card, CardBody } from "@/components/ui/card";
import { Stepper } from "@/components/ui/stepper";
import type { Repository } from "@/schemas/codehost-integrations";
import { apiFailure, issuesByPath } from "@/trpc/errors";
import { useTRPC } from "@/trpc/react";
import { ConfigureStep, type StepErrors } from "./configure-step";
import { IntegrationStep } from "./integration-step";
import { RepositoryStep } from "./repository-step";
import { ReviewSummary } from "./review-step";
import { WizardSummary } from "./wizard-summary";
import {
  configureDefaults,
  configureFieldFor,
  createBody,
  stepIndex,
  steps,
  type ConfigureValues,
} from "./wizard-model";

const titles = [
  "Choose a code-host integration",
  "Pick a repository",
  "Configure the deployment",
  "Review and create",
];

/** Where a create failure is shown: the step (and fields) it is about. */
function placeFailure(error: unknown): { step: number; errors: StepErrors } {
  const failed = apiFailure(error);
  if (failed.status === 409)
    return { step: stepIndex("configure"), errors: { fields: { name: failed.message } } };
  const fields: Record<string, string> = {};
  for (const [path, msg] of Object.entries(issuesByPath(failed.issues))) {
    const field = configureFieldFor(path);
    if (field) fields[field] = msg;
  }
  if (Object.keys(fields).length) return { step: stepIndex("configure"), errors: { fields } };
  if (/repo_url|integration/.test(failed.message) && failed.status === 400)
    return { step: stepIndex("repository"), errors: { fields: {}, message: failed.message } };
  if (failed.status === 400)
    return { step: stepIndex("configure"), errors: { fields: {}, message: failed.message } };
  return { step: stepIndex("review"), errors: { fields: {}, message: failed.message } };
}

export function ImportWizard() {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const integrations = useQuery(trpc.codehostIntegrations.list.queryOptions());
  const [step, setStep] = useState(0);
  const [integrationId, setIntegrationId] = useState<string | null>(null);
  const [repo, setRepo] = useState<Repository | null>(null);
  const [config, setConfig] = useState<ConfigureValues | null>(null);
  const [failure, setFailure] = useState<{ step: number; errors: StepErrors } | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const first = useRef(true);

  // Move focus to the new step's heading so keyboard and screen-reader users follow along.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    heading.current?.focus();
  }, [step]);

  const create = useMutation(
    trpc.deployments.create.mutationOptions({
      onSuccess: async (deployment) => {
        toast.success(`Created ${deployment.name}: its first revision is queued`);
        await queryClient.invalidateQueries({ queryKey: trpc.deployments.list.pathKey() });
        router.push(`/deployments/${deployment.id}`);
      },
      onError: (error) => {
        const placed = placeFailure(error);
        setFailure(placed);
        setStep(placed.step);
        toast.error("Could not create the deployment");
      },
    }),
  );

  // The branch and the graph config file are checked first, so a typo costs no deployment name.
  const checkSource = useMutation(trpc.codehostIntegrations.checkSource.mutationOptions());
  const submit = async (repo: Repository, config: ConfigureValues) => {
    setFailure(null);
    try {
      await checkSource.mutateAsync({
        integration_id: repo.host_integration_id,
        repo_url: repo.url,
        repo_ref: config.repo_ref,
        graph_config_path: config.graph_config_path,
      });
    } catch (error) {
      const placed = placeFailure(error);
      setFailure(placed);
      setStep(placed.step);
      return;
    }
    create.mutate(createBody(repo, config));
  };
  const creating = checkSource.isPending || create.isPending;

  const go = (to: number) => {
    if (failure && failure.step !== to) setFailure(null);
    setStep(to);
  };
  const integrationName = integrations.data?.find((i) => i.id === integrationId)?.name ?? "";
  const stepFailure = failure?.step === step ? failure.errors : null;

  return (
    <div className="grid gap-6 lg:grid-cols-[1fr_16rem]">
      <Card>
        <CardBody className="space-y-6 py-5">
          <Stepper steps={[...steps]} current={step} onSelect={go} />
          <h2 ref={heading} tabIndex={-1} className="text-lg font-semibold outline-none">
            {titles[step]}
          </h2>
          {step === 0 && (
            <>
              <IntegrationStep
                selected={integrationId}
                onSelect={(id) => {
                  if (id !== integrationId) setRepo(null);
                  setIntegrationId(id);
                }}
              />
              <StepButtons onNext={() => go(1)} nextDisabled={!integrationId} />
            </>
          )}
          {step === 1 && integrationId && (
            <>
              {stepFailure?.message && <Alert>{stepFailure.message}</Alert>}
              <RepositoryStep
                integrationId={integrationId}
                selected={repo}
                onSelect={(r) => {
                  if (r.id !== repo?.id) setConfig(null);
                  setRepo(r);
                }}
              />
              <StepButtons onBack={() => go(0)} onNext={() => go(2)} nextDisabled={!repo} />
            </>
          )}
          {step === 2 && repo && (
            <ConfigureStep
              values={config ?? configureDefaults(repo)}
              serverErrors={stepFailure}
              onBack={(draft) => {
                setConfig(draft);
                go(1);
              }}
              onNext={(values) => {
                setConfig(values);
                go(3);
              }}
            />
          )}
          {step === 3 && repo && config && (
            <>
              {stepFailure?.message && <Alert>{stepFailure.message}</Alert>}
              <ReviewSummary integrationName={integrationName} repo={repo} config={config} />
              <StepButtons
                onBack={() => go(2)}
                onNext={() => void submit(repo, config)}
                nextLabel={
                  checkSource.isPending
                    ? "Checking…"
                    : create.isPending
                      ? "Creating…"
                      : "Create deployment"
                }
                nextDisabled={creating}
              />
            </>
          )}
        </CardBody>
      </Card>
      <WizardSummary integrationName={integrationName} repo={repo} config={config} />
    </div>
  );
}

function StepButtons({
  onBack,
  onNext,
  nextDisabled,
  nextLabel = "Next",
}: {
  onBack?: () => void;
  onNext: () => void;
  nextDisabled?: boolean;
  nextLabel?: string;
}) {
  return (
    <div className="flex justify-between gap-2 border-t border-zinc-200 pt-5 dark:border-zinc-800">
      {onBack ? (
        <Button variant="secondary" onClick={onBack}>
          Back
        </Button>
      ) : (
        <span />
      )}
      <Button onClick={onNext} disabled={nextDisabled}>
        {nextLabel}
      </Button>
    </div>
  );
}
