import { createClient } from '@libsql/client';
const c = createClient({ url: 'file:' + process.argv[2] });
for (const q of process.argv.slice(3)) {
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    const r = await c.execute(q);
    const ms = performance.now() - t;
    if (i == 2) console.log(ms.toFixed(2), 'ms', JSON.stringify(r.rows.slice(0, 3)), r.rows.length, q.slice(0, 150));
  }
}
