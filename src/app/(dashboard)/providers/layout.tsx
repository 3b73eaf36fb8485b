// Its pages read through tRPC.
export { DataLayout as default } from "@/trpc/data-layout";
