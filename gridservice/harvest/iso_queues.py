"""The six ISO queue harvesters, by source name, with the file names each recognises."""

from __future__ import annotations

from gridservice.harvest import (
    caiso_queue,
    isone_queue,
    miso_queue,
    nyiso_queue,
    pjm_queue,
    spp_queue,
)
from gridservice.harvest._iso_queue import QueueLayout

# source name -> (layout, file name patterns)
ISO_QUEUES: dict[str, tuple[QueueLayout, tuple[str, ...]]] = {
    "pjm-queue": (pjm_queue.LAYOUT, ("pjm_serial_service_request_status_*.xlsx",)),
    "miso-queue": (miso_queue.LAYOUT, ("miso_gi_interactive_queue_*.csv",)),
    "spp-queue": (spp_queue.LAYOUT, ("spp_gi_active_requests_*.xlsx",)),
    "caiso-queue": (caiso_queue.LAYOUT, ("caiso_queue_report_*.xlsx",)),
    "nyiso-queue": (nyiso_queue.LAYOUT, ("nyiso_interconnection_queue_*.xlsx",)),
    "isone-queue": (isone_queue.LAYOUT, ("isone_queue_report_*.xlsx",)),
}
