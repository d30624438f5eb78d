"""Top-ups (docs/operations.md#running-a-program): a cardholder funds an account by one of the
seed's payment methods; the operator confirms what arrived, or cancels; unpaid ones expire."""

from cardservice.topups.service import TOPUP_SWEEP_JOB, sweep_expired_topups

__all__ = ["TOPUP_SWEEP_JOB", "sweep_expired_topups"]
