"use client";

export { ErrorView as default } from "@/components/shell/error-view";
