"""What users of Python's PostgreSQL clients do, run against kafka-mv by PythonClientsIT.

Usage: python_clients.py <client> <port> [<user> <password> <database>]. Prints one line per check, "<check>\t<repr of the result>", and
exits 0. PythonClientsIT runs it against kafka-mv and against the real PostgreSQL and compares the lines. A check that fails prints "<check>\tERROR <type>: <message>" instead. The table each client
creates is its own, so the clients can run in any order.
"""
import asyncio
import datetime
import decimal
import os
import sys

os.environ.setdefault("SQLALCHEMY_SILENCE_UBER_WARNING", "1")

CLIENT, PORT = sys.argv[1], int(sys.argv[2])
USER, PASSWORD, DATABASE = sys.argv[3:6] if len(sys.argv) == 6 else ("root", "", "dev")
ROWS = [
    (1, "ann", decimal.Decimal("1.50"), datetime.datetime(2026, 1, 1, 0, 1, 30, 500000), b"\x01\x02", True),
    (2, None, None, None, None, None),
]


def check(name, action):
    try:
        result = action()
    except Exception as error:  # a check that fails is reported, the others still run
        result = "ERROR %s: %s" % (type(error).__name__, str(error).strip().splitlines()[0])
    print("%s\t%r" % (name, result), flush=True)


def create_table(cursor, table):
    cursor.execute("DROP TABLE IF EXISTS %s" % table)
    cursor.execute("CREATE TABLE %s (id INT PRIMARY KEY, name TEXT, price NUMERIC(10,2), at TIMESTAMP, "
                   "raw BYTEA, ok BOOLEAN)" % table)


DURATIONS = [(1, datetime.timedelta(days=2, seconds=11045, microseconds=500000)), (2, datetime.timedelta(minutes=90)),
             (3, None)]


def durations(cursor, table):
    """An interval column written with Python's timedelta and read back, also compared with one."""
    cursor.execute("DROP TABLE IF EXISTS %s" % table)
    cursor.execute("CREATE TABLE %s (id INT PRIMARY KEY, d INTERVAL)" % table)
    for row in DURATIONS:
        cursor.execute("INSERT INTO %s VALUES (%%s, %%s)" % table, row)
    cursor.execute("SELECT id, d, d::text FROM %s WHERE d > %%s OR d IS NULL ORDER BY id" % table,
                   (datetime.timedelta(hours=1),))
    return cursor.fetchall()


def psycopg2_client():
    import psycopg2
    connection = psycopg2.connect(host="localhost", port=PORT, user=USER, password=PASSWORD, dbname=DATABASE)
    connection.autocommit = True
    cursor = connection.cursor()
    create_table(cursor, "py_psycopg2")
    for row in ROWS:
        cursor.execute("INSERT INTO py_psycopg2 VALUES (%s, %s, %s, %s, %s, %s)", row)

    def select():
        cursor.execute("SELECT id, name, price, at, raw, ok FROM py_psycopg2 ORDER BY id")
        return [tuple(bytes(v) if isinstance(v, memoryview) else v for v in row) for row in cursor.fetchall()]
    check("select", select)

    def parameters():
        cursor.execute("SELECT name FROM py_psycopg2 WHERE id = %s AND price > %s", (1, decimal.Decimal("1.25")))
        return cursor.fetchall()
    check("parameters", parameters)

    def named_cursor():
        # A named cursor is a server-side cursor: DECLARE, then FETCH FORWARD itersize at a time, in a transaction.
        session = psycopg2.connect(host="localhost", port=PORT, user=USER, password=PASSWORD, dbname=DATABASE)
        try:
            rows = session.cursor(name="by_id")
            rows.itersize = 1
            rows.execute("SELECT id, name FROM py_psycopg2 ORDER BY id")
            return [row for row in rows]
        finally:
            session.rollback()
            session.close()
    check("named cursor", named_cursor)

    def copy_csv():
        import io
        cursor.copy_expert("COPY py_psycopg2 (id, name, price) FROM STDIN WITH CSV",
                           io.StringIO('3,"bob, jr",1.25\n4,,\n'))
        out = io.StringIO()
        cursor.copy_expert("COPY (SELECT id, name, price FROM py_psycopg2 WHERE id > 2 ORDER BY id) TO STDOUT", out)
        return cursor.rowcount, out.getvalue()
    check("copy csv in, text out", copy_csv)
    check("intervals", lambda: durations(cursor, "py_psycopg2_durations"))


def psycopg3_client(binary):
    import psycopg
    with psycopg.connect(host="localhost", port=PORT, user=USER, password=PASSWORD, dbname=DATABASE, autocommit=True) as connection:
        table = "py_psycopg3_" + ("binary" if binary else "text")
        cursor = connection.cursor(binary=binary)
        create_table(cursor, table)
        for row in ROWS:
            cursor.execute("INSERT INTO %s VALUES (%%s, %%s, %%s, %%s, %%s, %%s)" % table, row)

        def select():
            cursor.execute("SELECT id, name, price, at, raw, ok FROM %s WHERE id = %%s" % table, (1,))
            return cursor.fetchall()
        check("select", select)

        def prepared():
            rows = []
            for key in (1, 2, 1, 2, 1, 2):  # psycopg prepares a statement on its fifth run
                cursor.execute("SELECT id, price FROM %s WHERE id = %%s" % table, (key,))
                rows.append(cursor.fetchone())
            return rows
        check("prepared", prepared)

        def copy_in():
            with cursor.copy("COPY %s (id, name, price, at) FROM STDIN" % table) as copy:
                copy.write_row((10, "tab\there", decimal.Decimal("2.5"), datetime.datetime(2026, 2, 3, 4, 5, 6)))
                copy.write_row((11, None, None, None))
            cursor.execute("SELECT id, name, price, at FROM %s WHERE id >= 10 ORDER BY id" % table)
            return cursor.fetchall()
        check("copy in", copy_in)

        def copy_out():
            query = "SELECT id, name, price, at FROM %s ORDER BY id" % table
            with cursor.copy("COPY (%s) TO STDOUT WITH (FORMAT csv, HEADER)" % query) as copy:
                return b"".join(bytes(chunk) for chunk in copy).decode()
        check("copy out", copy_out)
        check("intervals", lambda: durations(cursor, table + "_durations"))


def asyncpg_client():
    import asyncpg

    async def run():
        connection = await asyncpg.connect(host="localhost", port=PORT, user=USER, password=PASSWORD, database=DATABASE)
        try:
            await connection.execute("DROP TABLE IF EXISTS py_asyncpg")
            await connection.execute("CREATE TABLE py_asyncpg (id INT PRIMARY KEY, name TEXT, price NUMERIC(10,2), "
                                     "at TIMESTAMP, raw BYTEA, ok BOOLEAN)")
            for row in ROWS:
                await connection.execute("INSERT INTO py_asyncpg VALUES ($1, $2, $3, $4, $5, $6)", *row)
            fetched = await connection.fetch("SELECT id, name, price, at, raw, ok FROM py_asyncpg WHERE id = $1", 1)
            value = await connection.fetchval("SELECT count(*) FROM py_asyncpg WHERE price > $1", decimal.Decimal("1"))
            await connection.execute("DROP TABLE IF EXISTS py_asyncpg_durations")
            await connection.execute("CREATE TABLE py_asyncpg_durations (id INT PRIMARY KEY, d INTERVAL)")
            for row in DURATIONS:
                await connection.execute("INSERT INTO py_asyncpg_durations VALUES ($1, $2)", *row)
            durations = await connection.fetch("SELECT id, d FROM py_asyncpg_durations WHERE d > $1 ORDER BY id",
                                               datetime.timedelta(hours=1))
            return [tuple(record) for record in fetched], value, [tuple(record) for record in durations]
        finally:
            await connection.close()
    check("fetch", lambda: asyncio.run(run()))


def sqlalchemy_client():
    import sqlalchemy as sa
    engine = sa.create_engine("postgresql+psycopg2://%s:%s@localhost:%d/%s" % (USER, PASSWORD, PORT, DATABASE))
    with engine.connect() as connection:
        connection.execute(sa.text("DROP TABLE IF EXISTS py_sqlalchemy"))
        connection.execute(sa.text("CREATE TABLE py_sqlalchemy (id INT PRIMARY KEY, name VARCHAR, "
                                   "price NUMERIC(10,2), at TIMESTAMP NOT NULL)"))

    def inspect():
        inspector = sa.inspect(engine)
        return "py_sqlalchemy" in inspector.get_table_names(), inspector.has_table("py_sqlalchemy"), \
            inspector.has_table("no_such_table"), inspector.get_pk_constraint("py_sqlalchemy")["constrained_columns"]
    check("inspector", inspect)

    table = sa.Table("py_sqlalchemy", sa.MetaData(), autoload_with=engine)
    check("reflection", lambda: [(c.name, str(c.type), c.nullable, c.primary_key) for c in table.columns])

    def core():
        with engine.connect() as connection:
            connection.execute(table.insert(), [
                {"id": 1, "name": "ann", "price": decimal.Decimal("2.5"), "at": datetime.datetime(2026, 3, 1, 12)},
                {"id": 2, "name": None, "price": None, "at": datetime.datetime(2026, 3, 2)}])
            query = sa.select(table.c.id, table.c.name, table.c.price).where(table.c.at > datetime.datetime(2026, 1, 1))
            return connection.execute(query.order_by(table.c.id)).fetchall()
    check("core", core)


CLIENTS = {
    "psycopg2": psycopg2_client,
    "psycopg3-text": lambda: psycopg3_client(False),
    "psycopg3-binary": lambda: psycopg3_client(True),
    "asyncpg": asyncpg_client,
    "sqlalchemy": sqlalchemy_client,
}

CLIENTS[CLIENT]()
