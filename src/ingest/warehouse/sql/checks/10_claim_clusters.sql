-- Values that agree, grouped. Claims with the same subject, attribute, release and unit
-- ("a key") are sorted by the interval their written precision allows (value ± value_tol,
-- ranges up to value_max) and overlapping intervals merge into one cluster; maturity and
-- other words cluster by equal value. "3万" and "29.8k" share a cluster, "2万" and "20万"
-- do not. Everything downstream compares clusters per document, never claim pairs, so the
-- checks stay linear in the number of claims.

CREATE OR REPLACE VIEW claim_clusters AS
WITH bounded AS (
    SELECT *,
           value_num - coalesce(value_tol, 0) AS lo,
           coalesce(value_max, value_num) + coalesce(value_tol, 0) AS hi
    FROM claims
),
starts AS (
    SELECT *,
           CASE WHEN value_num IS NULL THEN 0
                WHEN lo > max(hi) OVER (PARTITION BY subject, attribute, release, unit ORDER BY lo, hi, claim_id
                                        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) THEN 1
                ELSE 0 END AS new_cluster
    FROM bounded
)
SELECT * EXCLUDE (new_cluster),
       CASE WHEN value_num IS NULL THEN value
            ELSE '#' || sum(new_cluster) OVER (PARTITION BY subject, attribute, release, unit ORDER BY lo, hi, claim_id
                                               ROWS UNBOUNDED PRECEDING)
       END AS cluster
FROM starts;

-- What each document says about each key: the clusters it states, and its first claim in each.
CREATE OR REPLACE VIEW document_positions AS
SELECT subject, attribute, release, unit, doc_id,
       list(DISTINCT cluster ORDER BY cluster) AS clusters,
       min(claim_id) AS claim_id
FROM claim_clusters
GROUP BY ALL;
