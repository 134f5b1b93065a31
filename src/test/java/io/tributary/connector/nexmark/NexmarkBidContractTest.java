package io.tributary.connector.nexmark;

class NexmarkBidContractTest extends NexmarkContractTest {
    @Override
    NexmarkTable table() {
        return NexmarkTable.BID;
    }

    @Override
    long events() {
        return 600;
    }
}
