// Its form changes the password through tRPC.
export { DataLayout as default } from "@/trpc/data-layout";
