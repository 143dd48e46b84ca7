// The workflow and step handlers withWorkflow() generates into src/app/.well-known at build time.
declare module "@/app/.well-known/workflow/v1/*/route.js" {
  export function POST(request: Request): Promise<Response>;
}
