"use client";

import { useEffect, useState, type ComponentType } from "react";
import type { ExternalToast, ToasterProps } from "sonner";

// Toasts load on first use: sonner (its Toaster and styles) stays out of every page's
// first-load JavaScript, and a toast waits only for that one import the first time.

type Sonner = typeof import("sonner");
type Message = Parameters<Sonner["toast"]["success"]>[0];

let loadedToaster: ComponentType<ToasterProps> | null = null;
let mount: ((toaster: ComponentType<ToasterProps>) => void) | null = null;
let mounted: () => void = () => undefined;
const ready = new Promise<void>((resolve) => (mounted = resolve));
let sonner: Promise<Sonner> | null = null;

/** Imports sonner once, mounts its Toaster in <LazyToaster />, resolves once it listens. */
function load(): Promise<Sonner> {
  sonner ??= import("sonner").then(async (module) => {
    loadedToaster = module.Toaster;
    mount?.(module.Toaster);
    await ready;
    return module;
  });
  return sonner;
}

const show =
  (kind: "success" | "error" | "info") =>
  (message: Message, data?: ExternalToast): void =>
    void load().then(({ toast }) => toast[kind](message, data));

export const toast = { success: show("success"), error: show("error"), info: show("info") };

/** Where toasts appear; renders nothing until the first toast. */
export function LazyToaster(props: ToasterProps) {
  const [Toaster, setToaster] = useState<ComponentType<ToasterProps> | null>(null);
  useEffect(() => {
    mount = (component) => setToaster(() => component);
    if (loadedToaster) mount(loadedToaster);
    return () => void (mount = null);
  }, []);
  return Toaster ? (
    <>
      <Toaster {...props} />
      <Mounted />
    </>
  ) : null;
}

/** Runs after the Toaster's own effects (siblings run in order): it is subscribed by then. */
function Mounted() {
  useEffect(() => mounted(), []);
  return null;
}
