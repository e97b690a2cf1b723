//! value → protobuf bytes → value for every message type of the proto,
//! over the generated corpus of `a2a_types::testing` (every oneof member,
//! `optional` fields unset, default and set, extreme numbers in `data`).

use a2a_proto::testing::{check_roundtrip, TYPE_NAMES};
use proptest::prelude::*;

#[test]
fn every_type_round_trips_over_many_seeds() {
    assert_eq!(TYPE_NAMES.len(), 44);
    let mut checked = 0;
    for name in TYPE_NAMES {
        for seed in 0..200 {
            if let Err(e) = check_roundtrip(name, seed) {
                panic!("{name} seed {seed}: {e}");
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 44 * 200);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn any_seed_of_any_type_round_trips(index in 0..TYPE_NAMES.len(), seed in any::<u64>()) {
        let name = TYPE_NAMES[index];
        prop_assert!(check_roundtrip(name, seed).is_ok(), "{} seed {}: {:?}", name, seed, check_roundtrip(name, seed));
    }
}
