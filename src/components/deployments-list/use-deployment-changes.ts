"use client";

import { useEffect, useRef, useState } from "react";

/** Changes arriving within this window are read back once. */
const COALESCE_MS = 300;

/**
 * Follows deployment changes pushed by the server (GET /v2/deployments/events, one deployment's
 * or the workspace's) and calls `refresh` on each: on every (re)connection too, since changes may
 * have been missed while the stream was down. The browser reconnects a dropped stream itself.
 * Answers whether the stream is connected.
 */
export function useDeploymentChanges(refresh: () => void, deploymentId?: string): boolean {
  const [connected, setConnected] = useState(false);
  const latest = useRef(refresh);
  useEffect(() => {
    latest.current = refresh;
  }, [refresh]);

  useEffect(() => {
    const url = deploymentId
      ? `/v2/deployments/events?deployment_id=${encodeURIComponent(deploymentId)}`
      : "/v2/deployments/events";
    const source = new EventSource(url);
    let timer: ReturnType<typeof setTimeout> | null = null;
    const schedule = () => {
      timer ??= setTimeout(() => {
        timer = null;
        latest.current();
      }, COALESCE_MS);
    };
    source.addEventListener("ready", () => {
      setConnected(true);
      schedule();
    });
    source.addEventListener("change", schedule);
    source.addEventListener("error", () => setConnected(false));
    return () => {
      source.close();
      setConnected(false);
      if (timer) clearTimeout(timer);
    };
  }, [deploymentId]);
  return connected;
}
