package io.tributary.connector.nexmark;

class NexmarkAuctionContractTest extends NexmarkContractTest {
    @Override
    NexmarkTable table() {
        return NexmarkTable.AUCTION;
    }

    @Override
    long events() {
        return 2000;
    }
}
