CREATE TABLE dept(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE emp(id INTEGER PRIMARY KEY, dept INTEGER REFERENCES dept, pay INTEGER, name TEXT);
BEGIN;
WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 50)
  INSERT INTO dept(id, name) SELECT x, printf('dept%02d', x) FROM c;
WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 5000)
  INSERT INTO emp(dept, pay, name) SELECT (x * 7919) % 50 + 1, (x * 104729) % 1000, 'e' || x FROM c;
COMMIT;
CREATE INDEX emp_dept ON emp(dept);
CREATE INDEX emp_pay ON emp(pay, name);
SELECT d.name, count(e.id), sum(e.pay), max(e.name)
  FROM dept d JOIN emp e ON e.dept = d.id WHERE d.id % 10 = 3 GROUP BY d.id ORDER BY d.name;
SELECT count(*), sum(pay) FROM emp WHERE pay BETWEEN 100 AND 200;
UPDATE emp SET pay = pay + 1 WHERE dept IN (SELECT id FROM dept WHERE name LIKE '%7');
DELETE FROM emp WHERE id % 97 = 0;
SELECT e1.dept, count(*) FROM emp e1 JOIN emp e2 ON e1.pay = e2.pay AND e1.id < e2.id
  WHERE e1.dept < 4 GROUP BY e1.dept ORDER BY 1;
WITH RECURSIVE fib(n, a, b) AS (SELECT 1, 0, 1 UNION ALL SELECT n + 1, b, a + b FROM fib WHERE n < 80)
  SELECT n, a FROM fib WHERE n % 20 = 0;
SELECT group_concat(name, ',') FROM (SELECT name FROM emp ORDER BY pay DESC, name LIMIT 5);
