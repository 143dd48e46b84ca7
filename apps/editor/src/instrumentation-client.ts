import { z } from "zod";

// Runs in the browser before any of the app's modules (Next's client instrumentation hook).
// Zod compiles object parsers with `new Function` unless told not to, and probes whether it may
// when a module defines an object schema. Under the pages' CSP (script-src without
// 'unsafe-eval') that probe is a reported violation, so the browser's zod runs jitless: the same
// parsers, interpreted. It must run first because schemas are built when their modules load.
z.config({ jitless: true });
