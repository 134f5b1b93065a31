package io.tributary.connector.nexmark;

class NexmarkPersonContractTest extends NexmarkContractTest {
    @Override
    NexmarkTable table() {
        return NexmarkTable.PERSON;
    }

    @Override
    long events() {
        return 5000;
    }
}
