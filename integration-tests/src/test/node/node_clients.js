// What node-postgres users do, run against kafka-mv and the real PostgreSQL by NodeClientsIT, which compares the
// lines it prints: one per check, "<check>\t<JSON of the result>", or "<check>\tERROR <message>".
// Usage: node node_clients.js <port> [<user> <password> <database>]
const { Client } = require('pg');

const [port, user = 'root', password = '', database = 'dev'] = process.argv.slice(2);

async function check(name, action) {
  let result;
  try {
    result = JSON.stringify(await action());
  } catch (error) {
    result = 'ERROR ' + error.message.split('\n')[0];
  }
  console.log(name + '\t' + result);
}

async function main() {
  const client = new Client({ host: 'localhost', port: Number(port), user, password, database });
  await client.connect();
  try {
    await client.query('DROP TABLE IF EXISTS node_pg');
    await client.query('CREATE TABLE node_pg (id INT PRIMARY KEY, name VARCHAR, price NUMERIC(10,2), at TIMESTAMP, ok BOOLEAN)');
    await check('insert', async () => {
      const inserted = [];
      for (const row of [[1, 'ann', '1.50', '2026-01-01T00:01:30.500', true], [2, null, null, null, null]]) {
        inserted.push((await client.query('INSERT INTO node_pg VALUES ($1, $2, $3, $4, $5)', row)).rowCount);
      }
      return inserted;
    });
    await check('select', async () => {
      const result = await client.query('SELECT id, name, price, at, ok, at::varchar AS text FROM node_pg ORDER BY id');
      return { fields: result.fields.map((field) => [field.name, field.dataTypeID]), rows: result.rows };
    });
    await check('prepared', async () => {
      const rows = [];
      for (const id of [1, 2, 1]) {
        rows.push((await client.query({ name: 'by_id', text: 'SELECT name, price FROM node_pg WHERE id = $1', values: [id] })).rows);
      }
      return rows;
    });
    await check('array mode', async () =>
      (await client.query({ text: 'SELECT count(*) AS n, sum(price) AS s FROM node_pg', rowMode: 'array' })).rows);
    await check('error', async () => {
      try {
        await client.query('SELECT * FROM no_such_table');
        return 'no error';
      } catch (error) {
        return [error.code, error.message];
      }
    });
  } finally {
    await client.end();
  }
}

main().catch((error) => {
  console.log('FATAL\t' + error.message);
  process.exit(1);
});
