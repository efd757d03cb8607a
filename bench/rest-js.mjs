// SPDX-License-Identifier: GPL-3.0-or-later
// wn-bench's JS rest row: camunda-external-task-client-js with its defaults
// (maxTasks 10, a poll every 300 ms, usePriority, lockDuration 50 s)
// completes N tasks of topic "work" against winnow-run --serve.
// usage: node rest-js.mjs BASE_URL N   → prints tasks completed per wall second
import { Client } from "camunda-external-task-client-js";

const [baseUrl, count] = process.argv.slice(2);
const wanted = Number(count);
let completed = 0;
let started = null;

// silent: the client's logger is not installed (its `use`), errors end the run
const client = new Client({ baseUrl, workerId: "bench-js" });
client.on("poll:start", () => {
  started ??= process.hrtime.bigint();
});
client.on("poll:error", (e) => {
  console.error(`poll: ${e}`);
  process.exit(1);
});
client.on("complete:error", (task, e) => {
  console.error(`complete ${task.id}: ${e}`);
  process.exit(1);
});
client.subscribe("work", async ({ task, taskService }) => {
  await taskService.complete(task);
  if (++completed === wanted) {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    client.stop();
    console.log((wanted / seconds).toFixed(3));
    process.exit(0);
  }
});
