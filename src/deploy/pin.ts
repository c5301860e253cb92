/**
 * The plan's own commands pinned to the free cards (issue 16): each node's
 * command starts with CUDA_VISIBLE_DEVICES set to the cards the inventory
 * says are free there, so a command pasted on a half-busy node does not land
 * on a busy card. Unchanged where the inventory did not name them.
 */
import { shellWord, type Cluster, type PlanOption } from "../plan/index.ts";
import { cardOf } from "../plan/index.ts";
import { pinnedCards } from "./devices.ts";

/** Which node of the option each command entry runs on, by the order commands.ts writes them. */
function nodeOfEntry(option: PlanOption, entry: number): number {
  const nodes = Math.max(1, option.placement.nodes);
  const count = option.commands.length;
  if (nodes === 1) return 0;
  if (option.engine === "llamacpp") return entry === count - 1 ? 0 : entry + 1;
  if (option.commands[0]?.includes("ray start")) return entry === count - 1 ? 0 : entry;
  return entry;
}

export function pinnedCommands(option: PlanOption, cluster: Cluster): string[] {
  // CUDA's variable; AMD's cards are not named by any importer yet. FreeToken picks its card with --gpu,
  // which its gpu_select.py resolves as an nvidia-smi index or UUID: that flag, not this variable, must name it.
  if (
    option.placement.cpu ||
    option.engine === "freetoken" ||
    (cardOf(option.placement.gpuClass)?.vendor ?? "nvidia") !== "nvidia"
  )
    return option.commands;
  return option.commands.map((command, i) => {
    const cards = pinnedCards(option, cluster, nodeOfEntry(option, i));
    if (cards === undefined) return command;
    const pin = `CUDA_VISIBLE_DEVICES=${shellWord(cards.join(","))} `;
    // A named entry is "# node (role)\n<command>": the variable goes on the command line.
    const at = command.lastIndexOf("\n") + 1;
    return `${command.slice(0, at)}${pin}${command.slice(at)}`;
  });
}
