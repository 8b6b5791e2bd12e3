#!/bin/bash
# How long a CANCEL takes to be seen and cleaned up while 20 backfills run on 2 instances (review finding 16).
# Run from the repository root after mvn install; prints per round the time until SHOW JOBS no longer lists
# the job and until its record is removed (groups and topics deleted).
set -u
cd "$(dirname "$0")/.."
WORK=${WORK:-/tmp/kmv-cancel-bench}; rm -rf $WORK; mkdir -p $WORK
bin/kafka-mv --data-dir $WORK/a > $WORK/a.log 2>&1 &
A=$!
for i in $(seq 90); do psql -h localhost -p 4566 -U root -d dev -c "select 1" >/dev/null 2>&1 && break; sleep 1; done
bin/kafka-mv --data-dir $WORK/b --bootstrap-servers=localhost:9092 --pg-port=4567 --http-port=8089 > $WORK/b.log 2>&1 &
B=$!
for i in $(seq 90); do psql -h localhost -p 4567 -U root -d dev -c "select 1" >/dev/null 2>&1 && break; sleep 1; done
P="psql -h localhost -p 4566 -U root -d dev -At"
$P -c "CREATE TABLE t (v BIGINT)" -c "INSERT INTO t SELECT x FROM generate_series(1, 1000000) AS s(x)" -c "FLUSH" >/dev/null
for i in $(seq 1 20); do
  $P -c "SET BACKGROUND_DDL = true" -c "SET BACKFILL_RATE_LIMIT = 5000" -c "CREATE MATERIALIZED VIEW m$i AS SELECT v % $((i+5)) AS k, count(*) AS n FROM t GROUP BY v % $((i+5))" >/dev/null
done
# Let every backfill start on both instances.
sleep 20
echo "jobs running: $($P -c 'SHOW JOBS' | wc -l)"
for round in 1 2 3; do
  id=$($P -c "SHOW JOBS" | head -1 | cut -d'|' -f1)
  start=$(date +%s.%N)
  psql -h localhost -p 4567 -U root -d dev -At -c "CANCEL JOBS $id" >/dev/null
  while $P -c "SHOW JOBS" | grep -q "^$id|"; do sleep 0.1; done
  gone=$(date +%s.%N)
  while ! grep -q "Job $id (.*) removed" $WORK/a.log $WORK/b.log; do sleep 0.1; done
  removed=$(date +%s.%N)
  echo "round $round job $id: hidden $(echo "$gone - $start" | bc) s, removed (topics, groups deleted) $(echo "$removed - $start" | bc) s"
done
kill $B; wait $B; kill $A; wait $A
