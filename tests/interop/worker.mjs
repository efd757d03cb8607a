// SPDX-License-Identifier: GPL-3.0-or-later
// Node workers on camunda-external-task-client-js, pointed at winnow-run --serve.
// usage: node worker.mjs MODE BASE_URL WORKER_ID
// Each prints one JSON line per thing it did ({"event": ...}), for the driver.
import { Client, Variables } from "camunda-external-task-client-js";

const [mode, baseUrl, workerId] = process.argv.slice(2);
const say = (event) => console.log(JSON.stringify(event));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const client = new Client({
  baseUrl,
  workerId,
  maxTasks: 10,
  interval: 50,
  asyncResponseTimeout: 2000,
  lockDuration: 10000,
  autoPoll: false,
});
client.on("poll:error", (e) => say({ event: "pollError", message: String(e) }));

// The inventory of the worked example: fails twice, then reserves.
// Trusted, it owns its retries (Camunda's idiom: retries left, retryTimeout);
// raw, Winnow's policy decides whatever it says.
function inventory() {
  const failures = new Map();
  client.subscribe("reserve", async ({ task, taskService }) => {
    const n = (failures.get(task.id) ?? 0) + 1;
    failures.set(task.id, n);
    if (n <= 2) {
      const retries = task.retries ?? 3;
      await taskService.handleFailure(task, {
        errorMessage: "inventory timeout",
        errorDetails: `attempt ${n}`,
        retries: retries - 1,
        retryTimeout: 300,
      });
      say({ event: "failure", task: task.id, retries: retries - 1 });
      return;
    }
    const variables = new Variables()
      .set("reservationId", "R-1001")
      .set("warehouse", { id: "W1", zone: "A-3" });
    await taskService.complete(task, variables);
    say({ event: "complete", task: task.id });
  });
}

// Long work: locks for 1 s, extends to 3 s, finishes after 1.5 s.
function extender() {
  client.subscribe("slow", { lockDuration: 1000 }, async ({ task, taskService }) => {
    await sleep(300);
    await taskService.extendLock(task, 3000);
    say({ event: "extendLock", task: task.id });
    await sleep(1200);
    await taskService.complete(task);
    say({ event: "complete", task: task.id });
  });
}

// Crashes with the job in hand: the process dies before it reports.
function crasher() {
  client.subscribe("slow", { lockDuration: 1000 }, async ({ task }) => {
    say({ event: "locked", task: task.id });
    process.exit(0);
  });
}

// Reports after its lock expired: Camunda's 400, visibly.
function late() {
  client.subscribe("slow", { lockDuration: 500 }, async ({ task, taskService }) => {
    client.stop();
    await sleep(1200);
    try {
      await taskService.complete(task);
      say({ event: "complete", task: task.id });
    } catch (e) {
      say({ event: "refused", task: task.id, status: e?.httpStatusCode, message: e?.engineMsg ?? String(e) });
    }
  });
}

// Completes whatever it gets.
function completer() {
  client.subscribe("slow", { lockDuration: 5000 }, async ({ task, taskService }) => {
    await taskService.complete(task);
    say({ event: "complete", task: task.id });
  });
}

const modes = { inventory, extender, crasher, late, completer };
if (!modes[mode]) {
  console.error(`unknown mode ${mode}`);
  process.exit(2);
}
modes[mode]();
client.start();
say({ event: "started", mode, workerId });
