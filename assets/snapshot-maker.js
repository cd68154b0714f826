// The snapshot maker (docs/worker.md, "The snapshot"): a module worker the page starts once it is
// idle after a start that was not a restore (assets/snapshot-keeper.js). It makes the snapshot off
// the page's main thread, keeps it in Cache Storage (assets/snapshot.js) and says what it did.
import {make} from "./snapshot.js";

make().then(
  (done) => postMessage(done),
  (err) => postMessage({made: false, why: "failed: " + String(err).slice(0, 200)}),
);
