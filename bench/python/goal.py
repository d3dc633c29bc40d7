"""One line per performance goal, the form every benchmark prints and
scripts/bench.sh collects into make bench's goal table (bench/c/goal.h's):

    goal: WHAT: MEASURED (goal OP TARGET): met|NOT met
"""


def goal(what: str, measured: float, at_most: bool, target: float, unit: str = "x") -> None:
    """Prints the line of one goal: at_most says measured must be <= target (else >=)."""
    met = measured <= target if at_most else measured >= target
    op = "<=" if at_most else ">="
    print(f"goal: {what}: {measured:.2f}{unit} (goal {op} {target:.2f}{unit}): {'met' if met else 'NOT met'}", flush=True)
