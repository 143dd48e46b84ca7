// `node bench/tools-main.ts`: runs the editor-tool benchmark and prints one table (`--smoke`: tiny).
import { benchMode, sizesFor } from "./sizes.ts";
import { benchTools } from "./tools.ts";

console.table(await benchTools(sizesFor(benchMode(process.argv)).tools));
