"""Confidence intervals for simulations and rollouts: 95% normal intervals of a mean (from running sums,
``mean_ci``, or from the values, ``mean_interval``) and Wilson intervals of a proportion (``wilson``)."""

from __future__ import annotations

import math
from typing import Sequence

from rules.protocol import JSONObject

Z95 = 1.959963984540054   # two-sided 95% normal quantile


def mean_ci(total: float, total2: float, n: int, scale: float = 1.0) -> JSONObject:
    """Mean and its 95% normal confidence interval from a sum and a sum of squares.

    >>> mean_ci(10, 30, 4)   # values 1, 2, 3, 4: mean 2.5, sample sd 1.291, se 0.6455
    {'mean': 2.5, 'low': 1.2348, 'high': 3.7652, 'n': 4}
    """
    if n == 0:
        return {"mean": None, "low": None, "high": None, "n": 0}
    mean = total / n / scale
    if n < 2:
        return {"mean": round(mean, 4), "low": None, "high": None, "n": n}
    variance = max(0.0, (total2 / scale ** 2 - n * mean * mean) / (n - 1))
    half = Z95 * math.sqrt(variance / n)
    return {"mean": round(mean, 4), "low": round(mean - half, 4), "high": round(mean + half, 4), "n": n}


def wilson(successes: float, n: int) -> JSONObject:
    """A proportion and its 95% Wilson score interval.

    >>> wilson(50, 100)
    {'rate': 0.5, 'low': 0.4038, 'high': 0.5962, 'n': 100}
    >>> wilson(0, 10)["low"], wilson(10, 10)["high"]
    (0.0, 1.0)
    """
    if n == 0:
        return {"rate": None, "low": None, "high": None, "n": 0}
    p = successes / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return {"rate": round(p, 4), "low": round(max(0.0, centre - half), 4), "high": round(min(1.0, centre + half), 4), "n": n}


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and 95% normal interval (the interval is the mean itself for fewer than two values)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, mean, mean
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = Z95 * math.sqrt(variance / n)
    return mean, mean - half, mean + half
