// `node bench/tools-main.ts`: runs the editor-tool benchmark and prints one table.
import { benchTools } from "./tools.ts";

console.table(await benchTools());
